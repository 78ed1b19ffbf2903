// A list of names said in a bounded sentence (the deferred tools a search can activate, the skills
// past the system prompt's budget, the skills a wrong name could have meant). Rule: however many
// names there are, the text stays under its budget, and says how many it left out.

/** The names, comma-separated, up to `budget` characters, then ` … and N more` and `moreSuffix`. */
export function namesWithin(names: readonly string[], budget: number, moreSuffix = ""): string {
  let listed = "";
  let count = 0;
  for (const name of names) {
    if (listed.length + name.length + 2 > budget) break;
    listed += `${count > 0 ? ", " : ""}${name}`;
    count++;
  }
  return count < names.length ? `${listed} … and ${names.length - count} more${moreSuffix}` : listed;
}
