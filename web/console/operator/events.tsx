import { localTime, unwrap } from '../lib.js';
import { FilteredList } from '../filtered-list.js';
import { ActionButton } from '../ui.js';
import { ConfirmButton } from '../confirm.js';
import { EVENT_STATUSES } from '../vocabulary.js';
import type { SectionProps } from './context.js';

/** A profile's ticketing events by status: publish a draft, cancel one (after confirming). */
export function Events({ api, profileId }: SectionProps) {
  return (
    <section aria-labelledby="events-h">
      <h2 id="events-h">Events</h2>
      <FilteredList
        id="event"
        scope={profileId}
        statuses={EVENT_STATUSES}
        load={async (query) =>
          (await unwrap(api.GET('/admin/v1/profiles/{id}/events', { params: { path: { id: profileId }, query } }))).data
        }
        empty={(status) => `No events${status ? ` in ${status}` : ''}. Partners create events with the ticketing API.`}
      >
        {(items, reload) => (
          <table class="list" aria-label="Events">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id}>
                  <td>{e.name}</td>
                  <td>{localTime(e.startsAt)}</td>
                  <td>{e.status}</td>
                  <td class="actions">
                    {e.status === 'DRAFT' && (
                      <ActionButton
                        label={`Publish ${e.name}`}
                        action={async () => (
                          await unwrap(api.POST('/admin/v1/events/{eventId}/publish', { params: { path: { eventId: e.id } } })),
                          reload()
                        )}
                      >
                        Publish
                      </ActionButton>
                    )}
                    {['DRAFT', 'ACTIVE', 'INACTIVE'].includes(e.status) && (
                      <ConfirmButton
                        label={`Cancel ${e.name}`}
                        consequence={{
                          title: `Cancel ${e.name}?`,
                          body: (
                            <p>
                              The event is cancelled for good: no more tickets are sold, and a cancelled event cannot be published again.
                            </p>
                          ),
                          confirm: 'Cancel the event',
                        }}
                        action={async () => (
                          await unwrap(api.POST('/admin/v1/events/{eventId}/cancel', { params: { path: { eventId: e.id } } })),
                          reload()
                        )}
                      >
                        Cancel
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </FilteredList>
    </section>
  );
}
