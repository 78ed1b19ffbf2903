// An error in what the user asked for (a flag, a model, a missing key). Rule: its message is one
// sentence that says what is valid or what to do; the command line exits 2 on it.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
