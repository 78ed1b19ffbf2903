// weather: a tool the model can call, `weather {city}`, plus `/weather <city>` which asks the model
// to use it. Written with the zot SDK; zot runs this file itself, nothing to install.
// The weather is fake and deterministic (a hash of the city name), so it never touches the
// network and always gives the same answer for the same city: good for demos and tests.
import { error, extension, prompt } from "@zot/sdk";

const CONDITIONS = ["sunny", "partly cloudy", "overcast", "light rain", "fog", "windy", "snow showers"];

function hash(text: string): number {
  let h = 2166136261;
  for (const char of text.toLowerCase()) h = Math.imul(h ^ char.codePointAt(0)!, 16777619) >>> 0;
  return h;
}

/** The fake report for one city, the same on every call. */
function report(city: string): string {
  const h = hash(city);
  const temperature = (h % 36) - 5;
  const condition = CONDITIONS[(h >>> 8) % CONDITIONS.length];
  return `${city}: ${temperature}°C, ${condition} (a deterministic fake from the weather example extension)`;
}

const ext = extension({ name: "weather", version: "1.0.0" });

ext.tool(
  {
    name: "weather",
    description: "Get the current weather for a city.",
    schema: {
      type: "object",
      properties: { city: { type: "string", description: "the city name, e.g. Berlin" } },
      required: ["city"],
    },
  },
  // The SDK has already checked that `city` is a string; it is typed as one here.
  (args) => {
    const city = args.city.trim();
    if (city === "") throw new Error("weather: city is empty; pass a city name like \"Berlin\"");
    return report(city);
  },
);

ext.command("weather", "current weather for a city", (args) =>
  args === "" ? error("usage: /weather <city>") : prompt(`What is the weather in ${args} right now? Use the weather tool and answer in one line.`),
);

await ext.run();
