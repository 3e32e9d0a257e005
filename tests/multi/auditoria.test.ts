/**
 * The operators' audit log against the servers' own database role (issue 41, support/multi.ts):
 * the servers run as `switch_app`, which owns nothing, and migrate as `switch_owner`. Connected as
 * the servers' role, nothing that would change the log, empty it, stop its new rows or switch its
 * triggers off works: the attempts are generated from the catalog (every trigger of `auditoria`,
 * its function, every role that owns a part of it, every way to set `session_replication_role`,
 * every way to change a row), and each is refused for want of privilege while the log stays as it
 * was and the servers keep writing it. A server whose role could do any of it is refused at start.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Bank, liveMerchant, startBank } from "../support/live.js"
import { type Multi, PASSWORD, ROLES, runServer, startMulti } from "../support/multi.js"
import { freePort } from "../support/stack.js"

let multi: Multi
let bank: Bank

beforeAll(async () => {
  bank = await startBank()
  multi = await startMulti({ SWITCH_BANK_URL: bank.url })
})
afterAll(async () => {
  await multi?.stop()
  await bank?.close()
})

/** Why a role that is, or may become, the schema's owner could change the log (platform/RuntimeRole.ts). */
const OWNER_REASONS = [
  `es, o puede hacerse, ${ROLES.owner}, dueño de la tabla auditoria`,
  `es, o puede hacerse, ${ROLES.owner}, dueño de su esquema`,
  "es, o puede hacerse, el dueño de auditoria_inmutable, la función de sus triggers",
  "tiene UPDATE, DELETE, TRUNCATE, TRIGGER sobre auditoria"
].join("; ")

/** Runs `use` on a connection to `switch` as `role`, ended afterwards. */
const as = async <A>(role: string, use: (client: Pg.Client) => Promise<A>): Promise<A> => {
  const client = new Pg.Client({ connectionString: multi.pg.url("switch", role) })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/** The statement's SQLSTATE when Postgres refuses it, or "ok"; in a transaction rolled back either way. */
const attempt = async (client: Pg.Client, sql: string): Promise<string> => {
  await client.query("begin")
  try {
    await client.query(sql)
    return "ok"
  } catch (error) {
    return (error as { code?: string }).code ?? String(error)
  } finally {
    await client.query("rollback")
  }
}

/** Every row of the log, as one text: equal before and after means nothing changed. */
const snapshot = () =>
  as(ROLES.admin, async (c) => {
    const r = await c.query<{ n: number; rows: string }>(
      "select count(*)::int as n, coalesce(string_agg(a::text, E'\\n' order by id), '') as rows from auditoria a"
    )
    return r.rows[0]
  })

/** The log's triggers, their functions and whether they fire in an ordinary session. */
const triggers = () =>
  as(ROLES.admin, async (c) => {
    const r = await c.query<{ name: string; fn: string; fires: boolean }>(
      `select t.tgname::text as name, p.oid::regprocedure::text as fn, t.tgenabled in ('O', 'A') as fires
       from pg_trigger t join pg_proc p on p.oid = t.tgfoid
       where t.tgrelid = 'auditoria'::regclass and not t.tgisinternal order by 1`
    )
    return r.rows
  })

/** Every statement that would let the servers' role change the log, from the catalog. */
const attacks = async (): Promise<Array<string>> => {
  const found = await triggers()
  const { rowId, owners, version } = await as(ROLES.admin, async (c) => {
    const row = await c.query<{ id: number }>("select max(id)::int as id from auditoria")
    // Whoever owns the table, its schema or a trigger's function, and every superuser.
    const roles = await c.query<{ rol: string }>(
      `select distinct pg_get_userbyid(o)::text as rol from (
         select relowner as o from pg_class where oid = 'auditoria'::regclass
         union select nspowner from pg_namespace where nspname = 'public'
         union select p.proowner from pg_trigger t join pg_proc p on p.oid = t.tgfoid
               where t.tgrelid = 'auditoria'::regclass
         union select oid from pg_roles where rolsuper) owners order by 1`
    )
    const v = await c.query<{ v: number }>("select current_setting('server_version_num')::int as v")
    return { rowId: row.rows[0]?.id ?? 0, owners: roles.rows.map((r) => r.rol), version: v.rows[0]?.v ?? 0 }
  })
  const perTrigger = found.flatMap(({ name }) => [
    `alter table auditoria disable trigger ${name}`,
    `alter table auditoria enable replica trigger ${name}`,
    `alter trigger ${name} on auditoria rename to ${name}_apagado`,
    `drop trigger ${name} on auditoria`
  ])
  const perFunction = [...new Set(found.map((t) => t.fn))].flatMap((fn) => [
    `create or replace function ${fn.replace(/\(.*$/, "()")} returns trigger language plpgsql as $$ begin return coalesce(new, old); end $$`,
    `alter function ${fn} rename to apagada`,
    `alter function ${fn} owner to ${ROLES.runtime}`,
    `drop function ${fn} cascade`
  ])
  const table = [
    ...["all", "user"].map((which) => `alter table auditoria disable trigger ${which}`),
    "alter table auditoria rename to auditoria_vieja",
    `alter table auditoria owner to ${ROLES.runtime}`,
    "alter table auditoria enable row level security",
    "create rule sin_auditoria as on insert to auditoria do instead nothing",
    "create trigger otro before insert on auditoria for each row execute function suppress_redundant_updates_trigger()",
    "lock table auditoria in access exclusive mode",
    "drop table auditoria cascade",
    "drop schema public cascade",
    "alter schema public rename to otro"
  ]
  const replication = [
    "set session_replication_role = replica",
    "set local session_replication_role = replica",
    "select set_config('session_replication_role', 'replica', false)",
    "alter role current_user set session_replication_role = replica",
    "alter database switch set session_replication_role = replica"
  ]
  const identity = owners.flatMap((role) => [`set role ${role}`, `set session authorization ${role}`])
  const rows = [`where id = ${rowId}`, ""].flatMap((where) => [
    `update auditoria set nota = 'cambiada', despues = null ${where}`,
    `delete from auditoria ${where}`,
    `select id from auditoria ${where} for update`
  ])
  const emptied = [
    "truncate auditoria",
    "truncate operadores cascade",
    `insert into auditoria (id, actor, accion, objeto_tipo, objeto_id) values (${rowId}, 'x', 'x', 'x', 'x')
     on conflict (id) do update set nota = 'cambiada'`,
    ...(version >= 150000
      ? [
          `merge into auditoria a using (select ${rowId}::bigint as id) s on a.id = s.id
           when matched then update set nota = 'cambiada'`,
          `merge into auditoria a using (select ${rowId}::bigint as id) s on a.id = s.id when matched then delete`
        ]
      : [])
  ]
  return [...perTrigger, ...perFunction, ...table, ...replication, ...identity, ...rows, ...emptied]
}

describe("the audit log against the servers' database role", () => {
  it("the servers run as a role that is no superuser and owns nothing of the log, and they write it", async () => {
    // Two approvals through the balancer: each is a row written by a server, as switch_app.
    const before = await snapshot()
    await liveMerchant(multi.url, "multi_auditoria")
    const after = await snapshot()
    expect(after?.n).toBe((before?.n ?? 0) + 2)
    const sessions = await as(ROLES.admin, (c) =>
      c.query<{ usename: string; application_name: string }>(
        "select distinct usename::text, application_name from pg_stat_activity where datname = 'switch' and application_name like 'switch%'"
      )
    )
    expect(new Set(sessions.rows.map((r) => r.usename))).toEqual(new Set([ROLES.runtime]))
    for (const server of multi.servers)
      expect(server.output()).toContain(
        `Postgres         DATABASE_URL como ${ROLES.runtime}; migraciones como ${ROLES.owner}\n`
      )
    const role = await as(ROLES.runtime, (c) =>
      c.query<{ rolsuper: boolean; owns: number }>(
        `select rolsuper, (select count(*)::int from pg_class where relowner = r.oid) +
           (select count(*)::int from pg_proc where proowner = r.oid) +
           (select count(*)::int from pg_namespace where nspowner = r.oid) as owns
         from pg_roles r where rolname = current_user`
      )
    )
    expect(role.rows).toEqual([{ rolsuper: false, owns: 0 }])
    // What it is granted of the log: adding to it and reading it.
    const added = await as(ROLES.runtime, (c) =>
      attempt(
        c,
        "insert into auditoria (actor, accion, objeto_tipo, objeto_id) values ('prueba', 'prueba', 'prueba', '1') returning id"
      )
    )
    expect(added).toBe("ok")
  })

  it("as that role, every way to change, empty, stop or switch off the log is refused, and the log is as it was", async () => {
    await liveMerchant(multi.url, "multi_auditoria_antes")
    const triggersBefore = await triggers()
    expect(triggersBefore.map((t) => t.name)).toEqual(["auditoria_sin_cambios", "auditoria_sin_truncate"])
    expect(triggersBefore.every((t) => t.fires)).toBe(true)
    const before = await snapshot()
    const statements = await attacks()
    expect(statements.length).toBeGreaterThan(40)
    const outcomes = await as(ROLES.runtime, async (c) => {
      const out: Record<string, string> = {}
      for (const sql of statements) out[sql] = await attempt(c, sql)
      return out
    })
    // 42501: insufficient_privilege, for every one (a typo would be 42601 and fail here too).
    expect(outcomes).toEqual(Object.fromEntries(statements.map((sql) => [sql, "42501"])))
    // Nor at connection, where a client sets its session's parameters.
    const replica = new Pg.Client({
      connectionString: multi.pg.url("switch", ROLES.runtime),
      options: "-c session_replication_role=replica"
    })
    replica.on("error", () => undefined)
    await expect(replica.connect()).rejects.toMatchObject({ code: "42501" })
    expect(await snapshot()).toEqual(before)
    expect(await triggers()).toEqual(triggersBefore)
    // And the servers write it as before.
    await liveMerchant(multi.url, "multi_auditoria_despues")
    expect((await snapshot())?.n).toBe((before?.n ?? 0) + 2)
  })

  it("its owner, who could remove the triggers, still meets them: UPDATE and DELETE of a row raise", async () => {
    const outcomes = await as(ROLES.owner, async (c) => [
      await attempt(c, "update auditoria set nota = 'cambiada' where id = (select max(id) from auditoria)"),
      await attempt(c, "delete from auditoria where id = (select max(id) from auditoria)"),
      await attempt(c, "truncate auditoria")
    ])
    expect(outcomes).toEqual(["P0001", "P0001", "P0001"])
  })

  it("a server whose DATABASE_URL role could change the log is refused at start, in one line, granted nothing", async () => {
    const version = await as(ROLES.admin, async (c) =>
      Number((await c.query("select current_setting('server_version_num') as v")).rows[0].v)
    )
    /** Each role, how it is made (as the superuser), and the reason the refusal gives. */
    const cases: Array<{ role: string; make: Array<string>; undo: Array<string>; reason: string }> = [
      { role: ROLES.admin, make: [], undo: [], reason: "es superusuario" },
      { role: ROLES.owner, make: [], undo: [], reason: "es también el de SWITCH_MIGRATIONS_DATABASE_URL" },
      {
        role: "switch_colado",
        make: [`create role switch_colado login password '${PASSWORD}' in role ${ROLES.owner}`],
        undo: ["drop owned by switch_colado", "drop role switch_colado"],
        reason: OWNER_REASONS
      },
      {
        role: "switch_heredero",
        make: [
          "create role editores_auditoria nologin",
          "grant update, delete on auditoria to editores_auditoria",
          `create role switch_heredero login password '${PASSWORD}' in role editores_auditoria`
        ],
        undo: [
          "drop owned by switch_heredero, editores_auditoria",
          "drop role switch_heredero",
          "drop role editores_auditoria"
        ],
        reason: "tiene UPDATE, DELETE sobre auditoria"
      },
      {
        role: "switch_funcion",
        make: [
          `create role switch_funcion login password '${PASSWORD}'`,
          "alter function auditoria_inmutable() owner to switch_funcion"
        ],
        undo: [
          `alter function auditoria_inmutable() owner to ${ROLES.owner}`,
          "drop owned by switch_funcion",
          "drop role switch_funcion"
        ],
        reason: "es, o puede hacerse, el dueño de auditoria_inmutable, la función de sus triggers"
      },
      ...(version >= 150000
        ? [
            {
              role: "switch_replica",
              make: [
                `create role switch_replica login password '${PASSWORD}'`,
                "grant set on parameter session_replication_role to switch_replica"
              ],
              undo: [
                "revoke set on parameter session_replication_role from switch_replica",
                "drop owned by switch_replica",
                "drop role switch_replica"
              ],
              reason: "puede fijar session_replication_role"
            }
          ]
        : [])
    ]
    for (const { role, make, undo, reason } of cases) {
      await as(ROLES.admin, async (c) => {
        for (const sql of make) await c.query(sql)
      })
      try {
        const url = multi.pg.url("switch", role)
        const run = await runServer(
          {
            ...multi.env,
            DATABASE_URL: url,
            SWITCH_COLA_DATABASE_URL: url,
            PORT: String(await freePort()),
            MCP_PORT: String(await freePort())
          },
          /Escucha en/
        )
        expect(run.code, run.output).toBe(1)
        const line = run.output.split("\n").find((l) => l.startsWith("No se pudo iniciar"))
        expect(line, run.output).toBe(
          `No se pudo iniciar: el rol de DATABASE_URL (${role}) no sirve para el servidor: ${reason}. Vea docs/deploy.md`
        )
        const granted = await as(ROLES.admin, (c) =>
          c.query<{ n: number }>(
            "select count(*)::int as n from information_schema.role_table_grants where grantee = $1",
            [role]
          )
        )
        if (role !== ROLES.admin && role !== ROLES.owner) expect(granted.rows[0]?.n, role).toBe(0)
      } finally {
        await as(ROLES.admin, async (c) => {
          for (const sql of undo) await c.query(sql)
        })
      }
    }
  })

  it("without SWITCH_MIGRATIONS_DATABASE_URL a server as the owner starts, and says its role could change the log", async () => {
    const url = multi.pg.url("switch", ROLES.owner)
    const { SWITCH_MIGRATIONS_DATABASE_URL: _, ...env } = multi.env
    const run = await runServer(
      {
        ...env,
        DATABASE_URL: url,
        SWITCH_COLA_DATABASE_URL: url,
        PORT: String(await freePort()),
        MCP_PORT: String(await freePort())
      },
      // The start-up lines end with an empty one.
      /Postgres {9}.*\n(?:Auditoría .*\n)?\n/
    )
    expect(run.code, run.output).toBe(null)
    expect(run.output).toContain(`Postgres         DATABASE_URL como ${ROLES.owner}\n`)
    expect(run.output).toContain(
      `Auditoría        ${ROLES.owner} podría alterarla (${OWNER_REASONS}): migre como otro rol con SWITCH_MIGRATIONS_DATABASE_URL (docs/deploy.md)\n`
    )
  })
})
