// Builds the zot binary: `bun run build` → dist/zot for this machine; `bun run build --all` → every
// release target plus dist/SHA256SUMS. Rule: one set of compile flags for every target (see
// DESIGN.md: plain --minify would mangle the SDKs' class names, .env/bunfig autoload is a hazard).
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { withBytecodeOrder } from "./bytecode-order.ts";
import { COMPILE_FLAGS } from "./compile-flags.ts";

const FLAGS = COMPILE_FLAGS;

const TARGETS = [
  { target: "bun-linux-x64", out: "zot-linux-x64" },
  { target: "bun-linux-arm64", out: "zot-linux-arm64" },
  { target: "bun-darwin-x64", out: "zot-darwin-x64" },
  { target: "bun-darwin-arm64", out: "zot-darwin-arm64" },
  { target: "bun-windows-x64", out: "zot-windows-x64.exe" },
];

const root = join(import.meta.dir, "..");
const dist = join(root, "dist");
mkdirSync(dist, { recursive: true });

async function build(outfile: string, target?: string, order: string[] = []): Promise<void> {
  const layout = order.length > 0 ? [`--bytecode-order=${order.join(",")}`] : [];
  const args = [process.execPath, "build", ...FLAGS, ...layout, ...(target ? [`--target=${target}`] : []), "src/main.ts", "--outfile", outfile];
  const proc = Bun.spawn(args, { cwd: root, stdout: "pipe", stderr: "inherit" });
  const code = await proc.exited;
  if (code !== 0) {
    console.error(`build failed for ${target ?? "this machine"}: ${args.join(" ")}`);
    process.exit(code);
  }
  // The source maps are embedded in the binary; the loose copies beside it are not shipped.
  for (const file of readdirSync(dirname(outfile))) if (file.endsWith(".map")) rmSync(join(dirname(outfile), file));
  console.log(`built ${outfile}`);
}

// Built once for this machine, run the ways users start it, then built again with the bytecode laid
// out by those runs (scripts/bytecode-order.ts); one profile serves every target.
await build(join(dist, "zot"));
await withBytecodeOrder(join(dist, "zot"), async (order) => {
  if (process.argv.includes("--all")) {
    const sums: string[] = [];
    for (const { target, out } of TARGETS) {
      const file = join(dist, out);
      await build(file, target, order);
      sums.push(`${createHash("sha256").update(readFileSync(file)).digest("hex")}  ${basename(file)}`);
    }
    writeFileSync(join(dist, "SHA256SUMS"), `${sums.join("\n")}\n`);
    copyFileSync(join(root, "scripts", "install.sh"), join(dist, "install.sh"));
    console.log(`wrote ${join(dist, "SHA256SUMS")} and ${join(dist, "install.sh")}`);
  } else {
    await build(join(dist, "zot"), undefined, order);
  }
});
