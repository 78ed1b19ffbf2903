// Whether a process a test started is still there. Rule: two questions, two answers: `alive`
// counts a zombie (the pid still exists), `running` does not (PID 1 here does not reap orphans, so
// a killed grandchild can linger as a zombie forever).
import { readFileSync } from "node:fs";

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Running, as opposed to gone or a zombie nobody reaped. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}
