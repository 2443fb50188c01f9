/**
 * Who invalidates the shared HTTP cache:
 * - `none`: there is none; every purge succeeds and does nothing;
 * - `varnish`: `PURGE` requests with the tags in `xkey-purge` (an xkey soft
 *   purge: the VCL in docs/http-cache.md), `BAN` of everything for a full flush;
 * - `revalidate`: a front end's revalidation route (revalidation.ts).
 * Both may be on: the purge goes to each.
 * A purge that fails throws a PurgeFailed naming the reason.
 */
export interface Purger {
  /** Which: `none`, `varnish`, `revalidate` (a front end's route), or several joined with `+`. */
  readonly name: string
  /** Purges every cached response tagged with one of the tags. */
  purgeTags(tags: readonly string[]): Promise<void>
  /** Flushes every cached response; false when this purger cannot (nothing is done). */
  flushAll(): Promise<boolean>
}

export class PurgeFailed extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'PurgeFailed'
  }
}
