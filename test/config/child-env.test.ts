// childEnv: zot's credentials are kept from its children, the provider variables and the ones
// models.json names as keys alike; ZOT_PASS_ENV passes one on purpose; everything else is inherited.
import { afterEach, beforeEach, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { childEnv } from "../../src/config/child-env.ts";
import { modelKeyVariables } from "../../src/config/model-key-variables.ts";

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "zot-child-env-"));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const writeModels = (data: unknown) => fs.writeFileSync(path.join(home, "models.json"), JSON.stringify(data));

test("the variables models.json names as keys ($VAR, ${VAR}, pi's bare name; provider and model level) are not inherited", () => {
  writeModels({
    providers: {
      openai: { apiKey: "$SHARED_KEY", models: [{ id: "a", apiKey: "TOGETHER_API_KEY" }, { id: "b", apiKey: "${BRACED_KEY}" }, { id: "c", apiKey: "sk-literal-key" }] },
      // a broken entry hides no other's key
      anthropic: { models: [7, { id: "d", apiKey: "$ANOTHER_KEY" }] },
      kimi: "not an object",
    },
  });
  expect(modelKeyVariables(home).sort()).toEqual(["ANOTHER_KEY", "BRACED_KEY", "SHARED_KEY", "TOGETHER_API_KEY"]);
  const env = { SHARED_KEY: "s", TOGETHER_API_KEY: "t", BRACED_KEY: "b", ANOTHER_KEY: "a", OPENAI_API_KEY: "o", PATH: "/bin", MINE: "kept" };
  expect(childEnv(env, home)).toEqual({ PATH: "/bin", MINE: "kept" });
});

test("ZOT_PASS_ENV passes a models.json key on purpose; the home defaults to the one env's ZOT_HOME names", () => {
  writeModels({ providers: { openai: { models: [{ id: "a", apiKey: "$TOGETHER_KEY" }] } } });
  const env = { ZOT_HOME: home, TOGETHER_KEY: "t", OTHER: "o" };
  expect(childEnv(env)).toEqual({ ZOT_HOME: home, OTHER: "o" });
  expect(childEnv({ ...env, ZOT_PASS_ENV: "TOGETHER_KEY" })).toMatchObject({ TOGETHER_KEY: "t" });
});

test("a models.json with a byte order mark, which the catalog reads, has its keys kept from children too", () => {
  fs.writeFileSync(path.join(home, "models.json"), `\uFEFF${JSON.stringify({ providers: { openai: { apiKey: "$BOM_KEY", models: [{ id: "a" }] } } })}`);
  expect(modelKeyVariables(home)).toEqual(["BOM_KEY"]);
  expect(childEnv({ BOM_KEY: "secret", PATH: "/bin" }, home)).toEqual({ PATH: "/bin" });
});

test("no models.json, or one that is not JSON, names none", () => {
  expect(modelKeyVariables(home)).toEqual([]);
  fs.writeFileSync(path.join(home, "models.json"), "{ not json");
  expect(childEnv({ TOGETHER_KEY: "t" }, home)).toEqual({ TOGETHER_KEY: "t" });
});
