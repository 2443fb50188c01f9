type Plain = Record<string, unknown>

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Deep-merges `override` over `base`: objects merge, everything else (arrays included) replaces. */
export function deepMerge<T extends Plain>(base: T, override: Plain): T {
  const out: Plain = { ...base }
  for (const [key, value] of Object.entries(override)) {
    out[key] = isPlain(value) && isPlain(out[key]) ? deepMerge(out[key] as Plain, value) : value
  }
  return out as T
}
