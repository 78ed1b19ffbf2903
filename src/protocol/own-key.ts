// A table looked up by a word from outside (a flag, a command, a config key, an env name): only the
// table's own entries count. Every plain object inherits `constructor`, `toString`, `__proto__` and
// the rest from Object.prototype, and a word like those must read as "not in the table", not as
// Object's functions.

/** `table[key]` when `key` is one of the table's own entries, else undefined. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
