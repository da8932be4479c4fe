/** A promise the test resolves by hand: work that waits at it until the test lets it go on. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}
