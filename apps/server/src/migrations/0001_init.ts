/**
 * The first schema: merchants, keys, links, batches, transactions, outbox events, customers
 * and rate counters. Money is `bigint` cents. Every merchant object carries `mode`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table comercios (
      id uuid primary key,
      codigo text not null unique,
      nombre text not null,
      identificacion text not null,
      tipo_doc text,
      email text not null,
      tipo text not null default 'empresa' check (tipo in ('empresa', 'personal')),
      estado text not null default 'pendiente' check (estado in ('pendiente', 'activo', 'suspendido')),
      kyc_tier integer not null default 0,
      revisado boolean not null default false,
      comision_bp integer,
      liquidacion_inmediata boolean not null default false,
      pagar_habilitado boolean not null default false,
      split_habilitado boolean not null default false,
      tarjeta_habilitada boolean not null default false,
      propina_max_bp integer,
      monto_min jsonb,
      monto_max jsonb,
      max_diario jsonb,
      tope_diario jsonb,
      tope_acumulado jsonb,
      cuenta_liquidacion jsonb,
      cuentas_aprobadas jsonb not null default '[]',
      created_at timestamptz not null default now()
    )`
  yield* sql`
    create table llaves (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      label text not null,
      mode text not null check (mode in ('test', 'live')),
      hash text not null unique,
      ultimos4 text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`
  yield* sql`create index llaves_comercio on llaves (comercio_id, mode)`
  yield* sql`
    create table lotes (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      nombre text,
      idempotency_key text,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`
  yield* sql`create unique index lotes_idempotency on lotes (comercio_id, idempotency_key) where idempotency_key is not null`
  yield* sql`create index lotes_list on lotes (comercio_id, mode, created_at desc)`
  yield* sql`
    create table links (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      estado text not null default 'pendiente'
        check (estado in ('pendiente', 'cobrando', 'procesando', 'revision', 'pagado', 'expirado', 'cancelado')),
      metodo text,
      monto bigint not null check (monto > 0),
      propina bigint not null default 0 check (propina >= 0),
      moneda text not null default 'VES',
      concepto text,
      expires_at timestamptz,
      success_url text,
      failure_url text,
      metadata jsonb not null default '{}',
      idempotency_key text,
      origen text not null default 'api',
      lote_id uuid references lotes(id),
      lote_pos integer,
      referencia_externa text,
      cliente jsonb,
      split jsonb,
      reparto jsonb,
      txn_id uuid,
      referencia_banco text,
      codigo_verificacion text unique,
      alta_cliente boolean not null default false,
      pagador_nombre text,
      busqueda text not null default '',
      paid_at timestamptz,
      created_at timestamptz not null default now()
    )`
  yield* sql`create unique index links_idempotency on links (comercio_id, idempotency_key) where idempotency_key is not null`
  yield* sql`create index links_list on links (comercio_id, mode, created_at desc)`
  yield* sql`create index links_lote on links (lote_id, lote_pos) where lote_id is not null`
  yield* sql`create index links_expiry on links (expires_at) where estado = 'pendiente'`
  yield* sql`
    create table transacciones (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      operacion text not null,
      estado text not null,
      link_id uuid references links(id),
      monto bigint not null,
      propina bigint not null default 0,
      moneda text not null default 'VES',
      referencia_banco text,
      endtoend text,
      motivo_rechazo text,
      intentos integer not null default 1,
      codigo_verificacion text unique,
      verificaciones integer not null default 0,
      primera_verificacion timestamptz,
      idempotency_key text,
      created_at timestamptz not null default now(),
      liquidada_at timestamptz
    )`
  yield* sql`create index transacciones_list on transacciones (comercio_id, mode, created_at desc)`
  yield* sql`create unique index transacciones_link_cobro on transacciones (link_id) where operacion = 'cobro' and estado = 'LIQUIDADA'`
  yield* sql`
    create table eventos (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      evento text not null,
      data jsonb not null,
      dedupe text unique,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index eventos_list on eventos (comercio_id, mode, created_at desc)`
  yield* sql`
    create table clientes (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      huella text not null,
      nombre text,
      acepta_novedades boolean not null default false,
      created_at timestamptz not null default now(),
      unique (comercio_id, mode, huella)
    )`
  yield* sql`
    create table tasas_bcv (
      id bigserial primary key,
      ves_por_usd numeric(20, 8) not null check (ves_por_usd > 0),
      created_at timestamptz not null default now()
    )`
  yield* sql`
    create table contadores (
      clave text primary key,
      cuenta integer not null,
      vence timestamptz not null
    )`
  yield* sql`create index contadores_vence on contadores (vence)`
})
