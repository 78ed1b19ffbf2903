// A number with its noun, singular for one: "1 row", "3 rows". Rule: English nouns that take an -s;
// one place, so no note says "1 rows".

export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
