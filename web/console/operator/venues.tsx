import { useEffect, useRef, useState } from 'preact/hooks';
import type { Answer, operations } from '../../shared/api.js';
import { localTime, unwrap, useLoad } from '../lib.js';
import { ListTable } from '../list-table.js';
import { ActionForm, Async, Notice } from '../ui.js';
import type { SectionProps } from './context.js';

type Venue = Answer<operations['listVenues']>['data']['items'][number];

/** The form's fields as typed (strings); empty optional fields are left out on create and cleared on edit. */
interface Fields {
  name: string;
  address: string;
  city: string;
  lat: string;
  lng: string;
  timezone: string;
}
const BLANK: Fields = { name: '', address: '', city: '', lat: '', lng: '', timezone: '' };

const fieldsOf = (v: Venue): Fields => ({
  name: v.name,
  address: v.address,
  city: v.city ?? '',
  lat: String(v.lat),
  lng: String(v.lng),
  timezone: v.timezone ?? '',
});

/** The body both routes take; `empty` is what an optional field left blank becomes (absent on create, null on edit). */
function bodyOf<E extends undefined | null>(f: Fields, empty: E) {
  return {
    name: f.name,
    address: f.address,
    lat: Number(f.lat),
    lng: Number(f.lng),
    city: f.city.trim() || empty,
    timezone: f.timezone.trim() || empty,
  };
}

/** A profile's venues (where its events take place): add one, edit one. */
export function Venues({ api, profileId }: SectionProps) {
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles/{id}/venues', { params: { path: { id: profileId } } })), [profileId]);
  const [editing, setEditing] = useState<Venue | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <section aria-labelledby="venues-h">
      <h2 id="venues-h">Venues</h2>
      {saved && <Notice kind="ok">{saved}</Notice>}
      <VenueForm
        key="new"
        id="venue-new"
        label="New venue"
        submit="Add venue"
        initial={BLANK}
        save={async (f) => {
          const { city, timezone, ...rest } = bodyOf(f, undefined);
          const created = await unwrap(
            api.POST('/admin/v1/profiles/{id}/venues', {
              params: { path: { id: profileId } },
              body: { ...rest, ...(city ? { city } : {}), ...(timezone ? { timezone } : {}) },
            }),
          );
          setSaved(`Added ${created.data.name}.`);
          state.reload();
        }}
      />
      <Async state={state}>
        {({ data }) => (
          <ListTable
            empty="No venues yet. Add one above: a partner's event takes place at one of its profile's venues."
            stacked
            label="Venues"
            rows={data.items}
            rowKey={(v) => v.id}
            columns={[
              { label: 'Name', cell: (v) => v.name },
              { label: 'Address', cell: (v) => v.address },
              { label: 'City', cell: (v) => v.city ?? '—' },
              {
                label: 'Coordinates',
                cell: (v) => (
                  <>
                    {v.lat}, {v.lng}
                  </>
                ),
              },
              { label: 'Time zone', cell: (v) => v.timezone ?? '—' },
              { label: 'Added', cell: (v) => localTime(v.createdAt) },
              {
                label: 'Actions',
                hideLabel: true,
                attrs: () => ({ class: 'actions' }),
                cell: (v) => (
                  <button type="button" aria-label={`Edit ${v.name}`} onClick={() => (setSaved(null), setEditing(v))}>
                    Edit
                  </button>
                ),
              },
            ]}
          />
        )}
      </Async>
      {editing && (
        <div class="edit" data-testid="venue-edit">
          <h3 id="venue-edit-h">Edit {editing.name}</h3>
          <VenueForm
            key={editing.id}
            id="venue-edit"
            label={`Edit ${editing.name}`}
            submit="Save venue"
            initial={fieldsOf(editing)}
            focus
            save={async (f) => {
              const changed = await unwrap(
                api.PATCH('/admin/v1/profiles/{id}/venues/{venueId}', {
                  params: { path: { id: profileId, venueId: editing.id } },
                  body: bodyOf(f, null),
                }),
              );
              setEditing(null);
              setSaved(`Saved ${changed.data.name}.`);
              state.reload();
            }}
          />
          <span class="action">
            <button type="button" onClick={() => setEditing(null)}>
              Cancel editing
            </button>
          </span>
        </div>
      )}
    </section>
  );
}

/** The venue's fields; `focus` puts the cursor in the first one (an edit form opened from the table). */
function VenueForm({
  id,
  label,
  submit,
  initial,
  focus = false,
  save,
}: {
  id: string;
  label: string;
  submit: string;
  initial: Fields;
  focus?: boolean;
  save: (fields: Fields) => Promise<void>;
}) {
  const [f, setF] = useState(initial);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focus) first.current?.focus();
  }, [focus]);
  const input = (name: keyof Fields) => ({
    id: `${id}-${name}`,
    value: f[name],
    onInput: (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [name]: e.currentTarget.value }),
  });
  return (
    <ActionForm
      label={label}
      submit={submit}
      action={async () => {
        await save(f);
        setF(initial);
      }}
    >
      <label for={`${id}-name`}>Name</label>
      <input ref={first} required maxLength={200} {...input('name')} />
      <label for={`${id}-address`}>Address</label>
      <input required maxLength={500} {...input('address')} />
      <label for={`${id}-city`}>City (optional)</label>
      <input maxLength={200} {...input('city')} />
      <label for={`${id}-lat`}>Latitude (−90 to 90)</label>
      <input type="number" step="any" min="-90" max="90" required {...input('lat')} />
      <label for={`${id}-lng`}>Longitude (−180 to 180)</label>
      <input type="number" step="any" min="-180" max="180" required {...input('lng')} />
      <label for={`${id}-timezone`}>Time zone (optional, e.g. Europe/Berlin)</label>
      <input {...input('timezone')} />
    </ActionForm>
  );
}
