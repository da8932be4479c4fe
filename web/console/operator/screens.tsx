import { adminToken } from '../lib.js';
import { Overview } from './overview.js';
import { OperatorSignIn } from './nav.js';
import { Profile } from './profile.js';
import { Profiles } from './profiles.js';
import { DeliveryDetail, VerificationDetail } from './verification.js';

/**
 * The operator console's screens by path below /console/operator/ (one file each in this
 * folder); a new screen is one line here.
 */
export function OperatorConsole({ path: [a, b, c, d] }: { path: string[] }) {
  if (!adminToken.value) return <OperatorSignIn />;
  if (a === 'profiles' && b && c === 'verifications' && d) return <VerificationDetail profileId={b} id={d} />;
  if (a === 'deliveries' && b) return <DeliveryDetail id={b} />;
  if (a === 'profiles' && b) return <Profile id={b} tab={c ?? 'keys'} />;
  if (a === 'overview') return <Overview />;
  return <Profiles />;
}
