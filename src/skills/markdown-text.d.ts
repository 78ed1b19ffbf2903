// Lets TypeScript type `import text from "./x.md" with { type: "text" }`, the way built-in skills
// are embedded into the compiled binary. bun-types declares *.txt but not *.md.
declare module "*.md" {
  const text: string;
  export default text;
}
