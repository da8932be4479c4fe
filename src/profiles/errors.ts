import { notFound } from '../plugins/envelope-errors.js';

/** The errors of profiles (tenants) and their API keys, managed through the operator API. */
export const profileErrors = {
  profileNotFound: () => notFound('Profile'),
  apiKeyNotFound: () => notFound('API key'),
  venueNotFound: () => notFound('Venue'),
};
