// The process table as zot reads it: whether a pid still names a process that can do something.
// A zombie (killed, its parent not yet told) holds no lock and runs no command any more.
import { expect, test } from "bun:test";
import { readProcess, stillRuns } from "../../src/process/process-table.ts";

test("a zombie does not still run; its parent, and this process, do", async () => {
  // The parent forks a child that exits at once, prints its pid and does not wait for it.
  const parent = Bun.spawn(["python3", "-c", "import os, sys, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(20)"], {
    stdout: "pipe",
  });
  try {
    const reader = parent.stdout.getReader();
    const { value } = await reader.read();
    const zombie = Number(new TextDecoder().decode(value).trim());
    for (let i = 0; i < 100 && readProcess(zombie)?.state !== "Z"; i++) await Bun.sleep(20);
    expect(readProcess(zombie)?.state).toBe("Z");
    expect(stillRuns(zombie)).toBe(false);
    expect(stillRuns(zombie, readProcess(zombie)?.start)).toBe(false);
    expect(stillRuns(parent.pid)).toBe(true);
    expect(stillRuns(process.pid, readProcess(process.pid)?.start)).toBe(true);
  } finally {
    parent.kill("SIGKILL");
    await parent.exited;
  }
});
