// zot's version, from package.json at build time.
import { version } from "../package.json" with { type: "json" };

export const VERSION: string = version;
