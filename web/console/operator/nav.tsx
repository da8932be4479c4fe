import { adminToken, client, unwrap } from '../lib.js';
import { ConsoleNav, SignIn } from '../sign-in.js';

export function OperatorNav() {
  return (
    <ConsoleNav
      links={[
        ['/console/operator/overview', 'Overview'],
        ['/console/operator', 'Profiles'],
      ]}
      credential={adminToken}
      home="/console/operator"
    />
  );
}

export function OperatorSignIn() {
  return (
    <SignIn
      title="Operator sign-in"
      intro={
        <>
          Sign in with the server’s <code>ADMIN_TOKEN</code>.
        </>
      }
      label="Operator token (ADMIN_TOKEN)"
      inputId="admin-token"
      credential={adminToken}
      check={(token) => unwrap(client(token).GET('/admin/v1/profiles', { params: { query: { limit: 1 } } }))}
    />
  );
}
