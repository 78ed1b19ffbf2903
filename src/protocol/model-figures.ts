// How a model's figures read to a person: context windows and output limits in tokens, prices per
// million tokens (the --list-models table, the TUI's model picker). Rule: pure; the same number
// always reads the same wherever it is shown.

/** 200000 → 200K, 32768 → 32K, 1047576 → 1.05M: how people say these numbers. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${trimNumber(n / 1_000_000, 2)}M`;
  // Limits like 8192 and 32768 are binary; "8.2K" would read as a different number.
  if (n >= 1_024 && n % 1_024 === 0 && n % 1_000 !== 0) return `${n / 1_024}K`;
  if (n >= 1_000) return `${trimNumber(n / 1_000, 1)}K`;
  return String(n);
}

/** Two decimals so the column lines up on the point; more only when the price has them. */
export function formatPrice(usd: number): string {
  if (usd === 0) return "-";
  return Number(usd.toFixed(2)) === usd ? usd.toFixed(2) : trimNumber(usd, 4);
}

function trimNumber(n: number, decimals: number): string {
  return String(Number(n.toFixed(decimals)));
}
