/**
 * Webhooks, their deliveries, the event stream's order, and the durable job queue.
 *
 * graphile-worker's own schema is installed here, inside the migrator's transaction and lock,
 * from the SQL files graphile-worker ships (the same statements and bookkeeping as its
 * `runMigrations`), so the `add_job` calls below exist before any server serves, and several
 * processes starting at once never race to install it. A later graphile-worker release adds
 * its new migrations itself when the runner starts.
 *
 * Every `eventos` row enqueues, in the transaction that writes it, one delivery per matching
 * active webhook (an AFTER INSERT trigger, so every writer of events is covered) and notifies
 * `switch_eventos` for the live streams.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
// graphile-worker has no exports map; this is the module its own migrate step reads.
import { migrations as workerMigrations } from "graphile-worker/dist/generated/sql.js"

const WORKER_SCHEMA = "graphile_worker"

const installWorkerSchema = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create schema if not exists ${WORKER_SCHEMA};
    create table if not exists ${WORKER_SCHEMA}.migrations(
      id int primary key,
      ts timestamptz default now() not null
    );
    alter table ${WORKER_SCHEMA}.migrations add column if not exists breaking boolean not null default false;`)
  const done = yield* sql<{ id: number | null }>`select max(id) as id from graphile_worker.migrations`
  const latest = done[0]?.id ?? 0
  for (const [file, text] of Object.entries(workerMigrations as Record<string, string>)) {
    const id = Number.parseInt(file.slice(0, 6), 10)
    if (id <= latest) continue
    const breaking = text.startsWith("--! breaking")
    yield* sql`insert into graphile_worker.migrations (id, breaking) values (${id}, ${breaking})`
    yield* sql.unsafe(text.replace(/:GRAPHILE_WORKER_SCHEMA\b/g, WORKER_SCHEMA))
  }
})

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* installWorkerSchema

  yield* sql`
    create table webhooks (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      url text not null,
      eventos text[] not null,
      estado text not null default 'activo' check (estado in ('activo', 'inactivo')),
      secret text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    )`
  yield* sql`create index webhooks_comercio on webhooks (comercio_id, created_at desc) where deleted_at is null`
  yield* sql`
    create table webhook_entregas (
      id uuid primary key,
      webhook_id uuid not null references webhooks(id),
      comercio_id uuid not null references comercios(id),
      evento_id uuid,
      evento text not null,
      mode text not null check (mode in ('test', 'live')),
      cuerpo text not null,
      estado text not null default 'pendiente'
        check (estado in ('pendiente', 'enviando', 'entregado', 'fallido', 'cancelado')),
      intentos integer not null default 0,
      proximo_intento timestamptz,
      codigo_http integer,
      error text,
      created_at timestamptz not null default now(),
      entregado_at timestamptz,
      unique (webhook_id, evento_id)
    )`
  yield* sql`create index webhook_entregas_list on webhook_entregas (webhook_id, mode, created_at desc)`

  // The stream's order: `seq` numbers rows, `xid` lets a reader wait for every transaction that
  // could still commit a smaller `seq` (rows are only read below the oldest running xid).
  yield* sql`alter table eventos add column seq bigserial`
  yield* sql`alter table eventos add column xid xid8 not null default pg_current_xact_id()`
  yield* sql`create unique index eventos_seq on eventos (comercio_id, mode, seq)`

  // The notice body exactly as webhooks, the list and the stream send it (DESIGN §5).
  yield* sql.unsafe(`
    create function switch_evento_sobre(e eventos) returns text language sql stable as $$
      select json_build_object(
        'id', 'evt_' || e.id,
        'evento', e.evento,
        'creado_en', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', e.data
      )::text
    $$`)
  yield* sql.unsafe(`
    create function switch_encolar_entregas() returns trigger language plpgsql as $$
    declare
      w record;
      entrega uuid;
      cuerpo text := switch_evento_sobre(new);
    begin
      for w in
        select id from webhooks
        where comercio_id = new.comercio_id and deleted_at is null and estado = 'activo'
          and (new.evento = any(eventos) or '*' = any(eventos))
      loop
        entrega := gen_random_uuid();
        insert into webhook_entregas (id, webhook_id, comercio_id, evento_id, evento, mode, cuerpo, proximo_intento)
        values (entrega, w.id, new.comercio_id, new.id, new.evento, new.mode, cuerpo, now());
        perform graphile_worker.add_job(
          'webhook_entrega',
          json_build_object('id', entrega, 'intento', 1),
          job_key := 'entrega:' || entrega,
          max_attempts := 5
        );
      end loop;
      perform pg_notify('switch_eventos', new.comercio_id::text || ':' || new.mode);
      return null;
    end
    $$`)
  yield* sql`
    create trigger eventos_entregas after insert on eventos
    for each row execute function switch_encolar_entregas()`

  // Immediate settlement: one settlement transaction per link, ever.
  yield* sql`
    create unique index transacciones_link_liquidacion on transacciones (link_id)
    where operacion = 'liquidacion'`
})
