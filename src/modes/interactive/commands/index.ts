// The built-in slash commands of the interactive app, in the order /help and the popup show them.
// Rule: one list; the app adds the extensions' commands after it (under their own divider), and a
// name here is one an extension cannot take (extensions/manager.ts BUILTIN_COMMANDS).
import type { SlashCommand } from "../app-context.ts";
import { BTW_COMMAND } from "./btw.ts";
import { CLEAR_COMMAND, COMPACT_COMMAND } from "./clear.ts";
import { EXIT_COMMANDS } from "./exit.ts";
import { helpCommand } from "./help.ts";
import { JAIL_COMMANDS } from "./jail.ts";
import { JUMP_COMMAND } from "./jump.ts";
import { MCP_COMMAND } from "./mcp.ts";
import { MODEL_COMMAND } from "./model.ts";
import { RELOAD_EXT_COMMAND } from "./reload-ext.ts";
import { SESSION_COMMAND } from "./session.ts";
import { SESSIONS_COMMAND } from "./sessions.ts";
import { SKILLS_COMMAND } from "./skills.ts";
import { YOLO_COMMAND } from "./yolo.ts";

export const BUILTIN_SLASH_COMMANDS: SlashCommand[] = [
  helpCommand(() => BUILTIN_SLASH_COMMANDS),
  MODEL_COMMAND,
  CLEAR_COMMAND,
  COMPACT_COMMAND,
  SESSIONS_COMMAND,
  SESSION_COMMAND,
  JUMP_COMMAND,
  BTW_COMMAND,
  RELOAD_EXT_COMMAND,
  SKILLS_COMMAND,
  MCP_COMMAND,
  ...JAIL_COMMANDS,
  YOLO_COMMAND,
  ...EXIT_COMMANDS,
];
