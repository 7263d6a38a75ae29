/**
 * A module (an SDK) loaded the first time a backend needs it, then kept. The CLI's `--help` and
 * an ingest with another backend never pay for loading it; the bundlers keep the code in the same
 * file but evaluate it only on this first call.
 */
export interface LazyModule<M> {
  load(this: void): Promise<M>;
  /** The module once `load` has finished, else null. */
  readonly loaded: M | null;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let pending: Promise<M> | null = null;
  let loaded: M | null = null;
  return {
    load() {
      pending ??= importer().then((module) => (loaded = module));
      return pending;
    },
    get loaded() {
      return loaded;
    },
  };
}
