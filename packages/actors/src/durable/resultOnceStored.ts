/**
 * The handle of a run or chat kept in a store whose `result` settles only
 * once its end is stored (`stored`, see `StoreSession.settle`): a caller
 * that awaits the result and then reads the store finds the run finished. Everything else is the
 * handle's own (its getters read the handle itself).
 *
 * @example
 * const run = resultOnceStored(attached, session.settle(attached.result, finishedState).stored);
 * await run.result; // the store says `finished`
 */
export function resultOnceStored<Handle extends { readonly result: Promise<unknown> }>(handle: Handle, stored: Promise<void>): Handle {
  const result = stored.then(() => handle.result);
  // A caller that never awaits the result is not told of its failure twice: the handle's own result reports it.
  result.catch(() => {});
  return new Proxy(handle, {
    get: (target, key) => (key === 'result' ? result : Reflect.get(target, key, target)),
  });
}
