/**
 * The rest of the money-in-review queue (issue 32):
 *
 * - `respuestas_banco`: every answer the bank gave about an item of the queue (a settlement, a
 *   split part's payment, a direct-API operation), whether the service asked on its own or an
 *   operator pressed "consultar al banco ahora"; the queue shows the latest, the item its history.
 * - `pagos_reparto`: paying a split part in review through the bank port, with four eyes like
 *   `pagos_revision`: the row's id is the bank order's id, written (and committed) before the
 *   order is sent, one open request per part, so a crash or a retry never sends a second order.
 * - `revisiones_cerradas`: items an operator closed that keep their state (a payout the bank
 *   rejected as `SIN_DEBITO_EN_EXTRACTO` is already final: closing it says a person reviewed it).
 * - Partial indexes so the queue reads only what waits for a person.
 * - `tasas_bcv` says who set each rate: `fuente` (`token`: the admin token, `operador`: by hand
 *   in the console, `url`: fetched from SWITCH_TASA_FUENTE_URL), and the operator.
 * - `incidentes`: incidents by bank that operators open and close; /estado shows them 7 days.
 * - `alertas`: what the console's home shows and SWITCH_ALERTAS_URL receives; one open alert per
 *   `clave` (the same alert is not raised twice while open), `enviada_at` once sent.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table respuestas_banco (
      id bigserial primary key,
      objeto_tipo text not null,
      objeto_id text not null,
      estado text not null,
      referencia_banco text,
      motivo_rechazo text,
      origen text not null check (origen in ('operador', 'envio')),
      operador_id uuid references operadores (id),
      created_at timestamptz not null default now()
    )`
  yield* sql`create index respuestas_banco_objeto on respuestas_banco (objeto_tipo, objeto_id, id desc)`
  yield* sql`
    create table pagos_reparto (
      id uuid primary key,
      link_id uuid not null references links (id),
      indice int not null check (indice >= 0 and indice < 5),
      monto bigint not null,
      solicitado_por uuid not null references operadores (id),
      confirmado_por uuid references operadores (id),
      estado text not null check (estado in ('pendiente', 'enviado', 'pagado', 'fallido')),
      respuesta jsonb,
      created_at timestamptz not null default now(),
      confirmado_at timestamptz,
      check (confirmado_por <> solicitado_por)
    )`
  yield* sql`
    create unique index pagos_reparto_abierto on pagos_reparto (link_id, indice)
    where estado in ('pendiente', 'enviado')`
  yield* sql`
    create table revisiones_cerradas (
      objeto_tipo text not null,
      objeto_id text not null,
      operador_id uuid references operadores (id),
      nota text not null,
      created_at timestamptz not null default now(),
      primary key (objeto_tipo, objeto_id)
    )`
  yield* sql`create index if not exists links_reparto_revision on links (created_at) where reparto->>'estado' = 'en_revision'`
  yield* sql`
    create index if not exists transacciones_directas_revision on transacciones (created_at)
    where estado in ('DESCONOCIDA', 'ERROR') or motivo_rechazo = 'SIN_DEBITO_EN_EXTRACTO'`
  yield* sql`alter table tasas_bcv add column fuente text not null default 'token'
    check (fuente in ('token', 'operador', 'url'))`
  yield* sql`alter table tasas_bcv add column operador_id uuid references operadores (id)`
  yield* sql`alter table tasas_bcv add column actor text`
  yield* sql`
    create table incidentes (
      id uuid primary key,
      banco text not null check (banco ~ '^[0-9]{4}$'),
      titulo text not null,
      detalle text,
      abierto_por uuid not null references operadores (id),
      abierto_at timestamptz not null default now(),
      cerrado_por uuid references operadores (id),
      cerrado_at timestamptz,
      nota_cierre text
    )`
  yield* sql`create index incidentes_recientes on incidentes (abierto_at desc)`
  yield* sql`create index incidentes_abiertos on incidentes (banco) where cerrado_at is null`
  yield* sql`
    create table alertas (
      id bigserial primary key,
      clave text not null,
      tipo text not null,
      detalle jsonb not null,
      created_at timestamptz not null default now(),
      resuelta_at timestamptz,
      enviada_at timestamptz
    )`
  yield* sql`create unique index alertas_abierta on alertas (clave) where resuelta_at is null`
  yield* sql`create index alertas_por_enviar on alertas (id) where enviada_at is null`
})
