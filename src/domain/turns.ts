/**
 * Resolves on a later turn of the event loop, after the I/O and timers waiting now. Work that
 * reads the embedded store in many steps awaits it between them: each read answers at once, so
 * without it nothing else would run until the last step.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
