// A program's path on PATH, as Bun.which finds it, without its throw: Bun.which throws ("bin path
// is too long") for a name longer than a path may be, and such a name is on no PATH.

/**
 * The program's path on `PATH` (the process's when undefined), or undefined when it is not there;
 * `cwd` is what PATH's relative entries are relative to (the process's when undefined).
 */
export function findProgram(name: string, PATH: string | undefined, cwd?: string): string | undefined {
  try {
    return Bun.which(name, { ...(PATH === undefined ? {} : { PATH }), ...(cwd === undefined ? {} : { cwd }) }) ?? undefined;
  } catch {
    return undefined;
  }
}
