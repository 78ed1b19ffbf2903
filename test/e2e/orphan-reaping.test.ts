// A long `zot rpc` session waits for the orphans its bash calls leave behind (`cmd &`: zot adopts
// them as a subreaper): once one exits it is reaped, not left a zombie holding a pid for the rest
// of the session. Real bash, the compiled binary, /proc read from outside.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { rpcFixture } from "../support/rpc-process.ts";
import { tempDir } from "../support/zot.ts";

const fixture = rpcFixture();

/** The zombie children of `pid`, from /proc. */
function zombieChildren(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
  return children.filter((child) => {
    try {
      const stat = readFileSync(`/proc/${child}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
    } catch {
      return false;
    }
  });
}

test.skipIf(!existsSync("/proc/self/task"))("an orphan that exited is reaped at a later bash call, not left a zombie", async () => {
  const orphan = (n: number) => ({ tool_calls: [{ name: "bash", args: { command: `sleep 0.05 & echo orphan-$!-${n}` } }] });
  const rpc = fixture.start([orphan(1), { text: "one" }, orphan(2), { text: "two" }, orphan(3), { text: "three" }], ["--no-ext"], { cwd: tempDir("zot-reap-cwd-"), home: tempDir("zot-reap-home-") });
  const pids: number[] = [];
  for (let n = 1; n <= 3; n++) {
    const events = await rpc.prompt(`call ${n}`);
    const text = JSON.stringify(events.find((e) => e.type === "tool_result"));
    pids.push(Number(/orphan-(\d+)-/.exec(text)![1]));
    // more than the second a zombie must stay one before zot counts it as an orphan of its own
    if (n < 3) await Bun.sleep(1300);
  }
  // The first was seen a zombie at the second call and reaped at the third; the newer ones wait for later calls.
  expect(existsSync(`/proc/${pids[0]}`)).toBe(false);
  expect(zombieChildren(rpc.pid)).not.toContain(pids[0]);
  expect(zombieChildren(rpc.pid).length).toBeLessThanOrEqual(2);
  expect(await rpc.close()).toBe(0);
});
