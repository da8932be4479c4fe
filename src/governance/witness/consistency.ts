import { nodeHash } from '../merkle.js';

/**
 * Whether `proof` shows the tree of `newSize` leaves with root `newRoot` extends the tree of
 * `oldSize` leaves with root `oldRoot` (RFC 9162 §2.1.4.2; 0 < oldSize < newSize). Pure: the
 * witness checks it before cosigning (docs/governance.md, "Witnesses").
 */
export function consistent(oldSize: number, oldRoot: Buffer, newSize: number, newRoot: Buffer, proof: Buffer[]): boolean {
  if (!(oldSize > 0 && oldSize < newSize)) return false;
  const path = (oldSize & (oldSize - 1)) === 0 ? [oldRoot, ...proof] : proof;
  if (path.length === 0) return false;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else sr = nodeHash(sr, c);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(oldRoot) && sr.equals(newRoot);
}
