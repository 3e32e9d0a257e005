/**
 * The server's own Postgres role, apart from the schema's owner (issue 41).
 *
 * The operators' audit log (`auditoria`, migration 0014) is append-only because a trigger refuses
 * UPDATE, DELETE and TRUNCATE; a trigger binds only a role that cannot take it away. The table's
 * owner may disable or drop it, the owner of its function may rewrite the function, the schema's
 * owner may drop the whole table, and a superuser may do any of it or switch every trigger off
 * for a session (`session_replication_role = replica`). So with SWITCH_MIGRATIONS_DATABASE_URL
 * the migrations run as the role that owns the schema, and the server runs as another one
 * (DATABASE_URL) that holds only what it uses: the rows of every table, and of `auditoria` only
 * INSERT and SELECT.
 *
 * The owner grants those privileges at every start, after the migrations ({@link grantRuntimeRole}),
 * so a table a later migration adds is granted with it and no default privileges need keeping
 * (graphile-worker's tables also need a row-level security policy each: {@link workerPolicies}).
 * graphile-worker's own migrations run as the owner then too: the runtime role may create nothing
 * in its schema, and the runner's check of them finds nothing left to do. The start is refused
 * unless the runtime role can change neither the log nor its triggers ({@link problems}).
 */
import { Logger, runMigrations } from "graphile-worker"
import Pg from "pg"

/** The triggers of migration 0014 that keep `auditoria` append-only. */
const TRIGGERS = ["auditoria_sin_cambios", "auditoria_sin_truncate"] as const

/** Table privileges that would let a role change or empty the log, or hang a trigger of its own on it. */
const FORBIDDEN = ["UPDATE", "DELETE", "TRUNCATE", "TRIGGER"] as const

/** A role, and what lets it change the audit log. */
export interface RuntimeRole {
  /** The role DATABASE_URL signs in as (`current_user`: whatever a pooler in between maps it to). */
  readonly role: string
  /** The role the migrations ran as, when it is another connection's. */
  readonly owner: string | null
  /** What lets {@link role} change or empty the audit log, one phrase each; empty when nothing does. */
  readonly problems: ReadonlyArray<string>
}

/** The runtime role could change the audit log, or lacks what it needs: the start is refused with this. */
export class RuntimeRoleError extends Error {
  constructor(
    readonly role: string,
    reasons: ReadonlyArray<string>
  ) {
    super(
      `el rol de DATABASE_URL (${role}) no sirve para el servidor: ${reasons.join("; ")}. Vea docs/deploy.md`
    )
  }
}

const withClient = async <A>(url: string, use: (client: Pg.Client) => Promise<A>): Promise<A> => {
  const client = new Pg.Client({ connectionString: url, application_name: "switch-roles" })
  client.on("error", () => undefined)
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

const currentUser = (client: Pg.ClientBase) =>
  client.query<{ rol: string }>("select current_user::text as rol").then((r) => r.rows[0]?.rol ?? "")

/**
 * What lets `role` change or empty the audit log, read from the catalog through `client` (inside
 * its transaction, if it is in one): being a superuser; being, or able to become, the owner of the
 * table, of its schema or of its triggers' function; UPDATE, DELETE, TRUNCATE or TRIGGER on it; the
 * right to set `session_replication_role` (grantable per parameter since PostgreSQL 15); and its
 * triggers missing or not firing.
 */
export const problems = async (client: Pg.ClientBase, role: string): Promise<Array<string>> => {
  const version = await client.query<{ v: number }>("select current_setting('server_version_num')::int as v")
  const replicacion =
    (version.rows[0]?.v ?? 0) >= 150000
      ? "has_parameter_privilege(r.oid, 'session_replication_role', 'SET')"
      : "false"
  const found = await client.query<{
    superusuario: boolean
    tabla: string | null
    esquema: string | null
    funciones: Array<string>
    privilegios: Array<string>
    sin_disparar: Array<string>
    replicacion: boolean
  }>(
    `select r.rolsuper as superusuario,
       case when pg_has_role(r.oid, c.relowner, 'MEMBER') then pg_get_userbyid(c.relowner)::text end as tabla,
       case when pg_has_role(r.oid, n.nspowner, 'MEMBER') then pg_get_userbyid(n.nspowner)::text end as esquema,
       array(select distinct p.proname::text from pg_trigger t join pg_proc p on p.oid = t.tgfoid
             where t.tgrelid = c.oid and not t.tgisinternal and pg_has_role(r.oid, p.proowner, 'MEMBER')) as funciones,
       array(select x from unnest($2::text[]) as x where has_table_privilege(r.oid, c.oid, x)) as privilegios,
       array(select x from unnest($3::text[]) as x
             where not exists (select 1 from pg_trigger t
                               where t.tgrelid = c.oid and t.tgname = x and t.tgenabled in ('O', 'A'))) as sin_disparar,
       ${replicacion} as replicacion
     from pg_roles r, pg_class c join pg_namespace n on n.oid = c.relnamespace
     where r.rolname = $1 and c.oid = 'auditoria'::regclass`,
    [role, FORBIDDEN, TRIGGERS]
  )
  const row = found.rows[0]
  if (row === undefined) return [`el rol ${role} no existe`]
  // A superuser passes every check below; saying so once is enough.
  if (row.superusuario) return ["es superusuario"]
  return [
    row.tabla !== null ? `es, o puede hacerse, ${row.tabla}, dueño de la tabla auditoria` : null,
    row.esquema !== null ? `es, o puede hacerse, ${row.esquema}, dueño de su esquema` : null,
    row.funciones.length > 0
      ? `es, o puede hacerse, el dueño de ${row.funciones.join(", ")}, la función de sus triggers`
      : null,
    row.privilegios.length > 0 ? `tiene ${row.privilegios.join(", ")} sobre auditoria` : null,
    row.replicacion ? "puede fijar session_replication_role" : null,
    row.sin_disparar.length > 0
      ? `los triggers ${row.sin_disparar.join(", ")} de auditoria faltan o no se disparan`
      : null
  ].filter((p) => p !== null)
}

/**
 * The tables of the schema (ours and graphile-worker's, but for the migrations' bookkeeping) that
 * `role` cannot read or add to: grants that did not take, when the migrations' role does not own them.
 */
const ungranted = async (client: Pg.ClientBase, role: string): Promise<Array<string>> => {
  const found = await client.query<{ tabla: string }>(
    `select n.nspname || '.' || c.relname as tabla
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'graphile_worker') and c.relkind in ('r', 'p', 'v')
       and (n.nspname, c.relname) not in (('public', 'effect_sql_migrations'), ('graphile_worker', 'migrations'))
       and not (has_table_privilege($1, c.oid, 'SELECT') and has_table_privilege($1, c.oid, 'INSERT'))
     order by 1`,
    [role]
  )
  return found.rows.map((r) => r.tabla)
}

/**
 * `url`'s role and what lets it change the audit log, without changing anything (one role for
 * all). Only said at start, so a check that fails is said too rather than stopping the start.
 */
export const checkRuntimeRole = (url: string): Promise<RuntimeRole> =>
  withClient(url, async (client) => {
    const role = await currentUser(client)
    const found = await problems(client, role).catch((error: unknown) => [
      `no se pudo comprobar: ${error instanceof Error ? error.message : String(error)}`
    ])
    return { role, owner: null, problems: found }
  })

const quiet = new Logger(() => () => undefined)

/** What the owner grants the runtime role `r` (quoted), after every migration. */
const grants = (r: string) => [
  `grant usage on schema public to ${r}`,
  `grant select, insert, update, delete on all tables in schema public to ${r}`,
  `grant usage, select on all sequences in schema public to ${r}`,
  // The migrator's bookkeeping is the owner's alone; the log is only added to and read.
  `revoke all on table effect_sql_migrations from ${r}`,
  `revoke update, delete, truncate, trigger, references on table auditoria from ${r}`,
  // graphile-worker's jobs, queues and task names; its migrations table is only read.
  `grant usage on schema graphile_worker to ${r}`,
  `grant select, insert, update, delete on all tables in schema graphile_worker to ${r}`,
  `revoke insert, update, delete, truncate on table graphile_worker.migrations from ${r}`,
  `grant usage, select on all sequences in schema graphile_worker to ${r}`,
  `grant execute on all functions in schema graphile_worker to ${r}`
]

/**
 * graphile-worker turns row-level security on for its tables, with no policy: only their owner
 * sees a row. So each gets a policy letting the runtime role `role` read and write every row,
 * made only where it is missing: a policy takes a lock on its table that running jobs would wait
 * behind, and a start finds them made.
 */
const workerPolicies = async (client: Pg.ClientBase, role: string) => {
  const tables = await client.query<{ tabla: string }>(
    `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as tabla
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'graphile_worker' and c.relkind in ('r', 'p') and c.relrowsecurity
       and not exists (select 1 from pg_policy p
                       where p.polrelid = c.oid and (select oid from pg_roles where rolname = $1) = any(p.polroles))`,
    [role]
  )
  const name = client.escapeIdentifier(`switch ${role}`)
  for (const { tabla } of tables.rows)
    await client.query(
      `create policy ${name} on ${tabla} for all to ${client.escapeIdentifier(role)} using (true) with check (true)`
    )
}

/**
 * As the owner (`ownerUrl`, after the migrations): graphile-worker's own migrations, then the
 * grants of the role `runtimeUrl` signs in as, in one transaction under an advisory lock (servers
 * starting together would otherwise fail on a grant updated concurrently), then the check.
 * Rejects with {@link RuntimeRoleError}, granting nothing, when the runtime role could still
 * change the log or cannot use a table.
 */
export const grantRuntimeRole = async (ownerUrl: string, runtimeUrl: string): Promise<RuntimeRole> => {
  const role = await withClient(runtimeUrl, currentUser)
  await runMigrations({ connectionString: ownerUrl, logger: quiet })
  const checked = await withClient(ownerUrl, async (client) => {
    const owner = await currentUser(client)
    if (owner === role) return { owner, reasons: ["es también el de SWITCH_MIGRATIONS_DATABASE_URL"] }
    await client.query("begin")
    try {
      await client.query("select pg_advisory_xact_lock(hashtext('switch: rol del servidor'))")
      for (const statement of grants(client.escapeIdentifier(role))) await client.query(statement)
      await workerPolicies(client, role)
      const missing = await ungranted(client, role)
      const reasons = [
        ...(await problems(client, role)),
        ...(missing.length > 0 ? [`no puede leer o escribir ${missing.join(", ")}`] : [])
      ]
      // A role refused keeps nothing.
      await client.query(reasons.length === 0 ? "commit" : "rollback")
      return { owner, reasons }
    } catch (error) {
      await client.query("rollback").catch(() => undefined)
      throw error
    }
  })
  if (checked.reasons.length > 0) throw new RuntimeRoleError(role, checked.reasons)
  return { role, owner: checked.owner, problems: [] }
}
