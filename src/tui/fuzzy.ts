// Fuzzy matching for pickers (slash commands, models, files, sessions): the query's characters in
// order, not necessarily adjacent, case-insensitive. Rule: among the ways a query can match, the
// best-scoring one counts (a DP, not the greedy leftmost match), scored the way fzf does: a match
// at the start, after a separator (/ - _ . space) or at a camelCase hump earns a bonus (double for
// the first character), adjacent characters earn a run bonus, and each gap costs. So "mod" ranks
// "model" over "my-old-data", "mdl" ranks the acronym "my-dull-list" over "model", and "tree"
// matches the word in "the-tree", not its first "t".

export interface FuzzyMatch {
  score: number;
  /** Indices (UTF-16) of the matched characters in the candidate, for highlighting. */
  positions: number[];
}

const SEPARATOR = /[\s/\\_\-.:]/;
const START_BONUS = 8;
const SEPARATOR_BONUS = 6;
const CAMEL_BONUS = 5;
const RUN_BONUS = 7;
/** Opening a gap costs GAP_OPEN, each skipped character GAP_PENALTY more. */
const GAP_OPEN = 2;
const GAP_PENALTY = 0.2;

function boundaryBonus(candidate: string, at: number): number {
  if (at === 0) return START_BONUS;
  const previous = candidate[at - 1];
  if (SEPARATOR.test(previous)) return SEPARATOR_BONUS;
  const char = candidate[at];
  if (char !== char.toLowerCase() && previous === previous.toLowerCase() && /[a-z0-9]/.test(previous)) return CAMEL_BONUS;
  return 0;
}

/** The best match of `query` in `candidate`, or undefined when its characters do not all occur in order. */
export function fuzzyMatch(query: string, candidate: string): FuzzyMatch | undefined {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  if (q === "") return { score: 0, positions: [] };
  if (q.length > c.length) return undefined;
  const m = q.length;
  const n = c.length;
  // score[i][j]: best score with query[i] matched at candidate[j]; from[i][j]: where query[i-1] was.
  const score: Float64Array[] = [];
  const from: Int32Array[] = [];
  for (let i = 0; i < m; i++) {
    score.push(new Float64Array(n).fill(Number.NEGATIVE_INFINITY));
    from.push(new Int32Array(n).fill(-1));
    let best = Number.NEGATIVE_INFINITY;
    let bestAt = -1;
    for (let j = i; j < n; j++) {
      // best over k < j - 1 of score[i-1][k] - gap, kept as a running maximum
      if (i > 0 && j - 2 >= 0 && score[i - 1][j - 2] !== Number.NEGATIVE_INFINITY) {
        const candidateBest = score[i - 1][j - 2] + GAP_PENALTY * (j - 2);
        if (candidateBest > best) {
          best = candidateBest;
          bestAt = j - 2;
        }
      }
      if (c[j] !== q[i]) continue;
      const bonus = boundaryBonus(candidate, j);
      if (i === 0) {
        score[i][j] = 1 + 2 * bonus - GAP_PENALTY * j * 0.5;
        continue;
      }
      const adjacent = score[i - 1][j - 1];
      const viaRun = adjacent === Number.NEGATIVE_INFINITY ? Number.NEGATIVE_INFINITY : adjacent + 1 + Math.max(bonus, RUN_BONUS);
      const viaGap = bestAt === -1 ? Number.NEGATIVE_INFINITY : best - GAP_PENALTY * j - GAP_OPEN + 1 + bonus;
      if (viaRun >= viaGap && viaRun !== Number.NEGATIVE_INFINITY) {
        score[i][j] = viaRun;
        from[i][j] = j - 1;
      } else if (viaGap !== Number.NEGATIVE_INFINITY) {
        score[i][j] = viaGap;
        from[i][j] = bestAt;
      }
    }
  }
  let end = -1;
  for (let j = 0; j < n; j++) if (score[m - 1][j] !== Number.NEGATIVE_INFINITY && (end === -1 || score[m - 1][j] > score[m - 1][end])) end = j;
  if (end === -1) return undefined;
  const positions: number[] = [];
  for (let i = m - 1, j = end; i >= 0; j = from[i][j], i--) positions.unshift(j);
  // Shorter candidates first among equals ("model" before "models-list" for "model").
  return { score: score[m - 1][end] - n * 0.01, positions };
}

/** The items that match, best first (ties keep their order); an empty query keeps every item in order. */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string): { item: T; match: FuzzyMatch }[] {
  const matched: { item: T; match: FuzzyMatch; index: number }[] = [];
  items.forEach((item, index) => {
    const match = fuzzyMatch(query, text(item));
    if (match) matched.push({ item, match, index });
  });
  if (query !== "") matched.sort((a, b) => b.match.score - a.match.score || a.index - b.index);
  return matched.map(({ item, match }) => ({ item, match }));
}
