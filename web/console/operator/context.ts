import { useMemo } from 'preact/hooks';
import type { ApiClient } from '../../shared/api.js';
import { adminToken, client } from '../lib.js';

/** The operator API as the signed-in operator (ADMIN_TOKEN), made again only when the token changes. */
export const useApi = (): ApiClient => useMemo(() => client(adminToken.value), [adminToken.value]);

/** What every section of a profile's screen is given. */
export interface SectionProps {
  api: ApiClient;
  profileId: string;
}
