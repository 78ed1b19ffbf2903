// Text that grows by many small pieces: a streamed answer's deltas, a tool call's argument
// fragments. Rule: appending makes no new string; the pieces are joined when the text is read, and
// the join is kept. (`text += delta` makes one rope cell per delta, all alive until the answer
// ends: 2.4 MB and a slower garbage collector on a 50,000-delta answer, per accumulator.)
// Pure: core/model-call.ts keeps append below the FTL tier (providers/stream-driver.ts says why).

export class GrowingText {
  private joined: string;
  private pieces: string[] = [];

  constructor(text = "") {
    this.joined = text;
  }

  append(piece: string): void {
    if (piece) this.pieces.push(piece);
  }

  get text(): string {
    if (this.pieces.length > 0) {
      this.joined += this.pieces.join("");
      this.pieces = [];
    }
    return this.joined;
  }

  /** Replaces the whole text. */
  set text(text: string) {
    this.joined = text;
    this.pieces = [];
  }

  get isEmpty(): boolean {
    return this.joined === "" && this.pieces.length === 0;
  }
}
