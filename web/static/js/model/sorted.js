// Searching a sorted array of numbers (step indices, call steps).

/** The position of the last of the first `length` entries that is ≤ x (−1 when none). */
export function lastAtOrBefore(sorted, x, length = sorted.length) {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
