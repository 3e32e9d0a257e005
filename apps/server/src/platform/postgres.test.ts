/**
 * The embedded Postgres's first start where it used to fail: as root in a clone under a 0700
 * directory (root's home), where the `postgres` user it runs as reaches neither the binaries
 * nor the data directory; and the one-line reasons it gives when it cannot start.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync
} from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import {
  blockedFor,
  freePort,
  PostgresStartError,
  packagedBinaries,
  ROOT_BASE,
  type RunningPostgres,
  startPostgres
} from "./Postgres.js"

const isRoot = process.getuid?.() === 0
const cleanup: Array<string> = []
afterAll(() => {
  for (const path of cleanup) rmSync(path, { recursive: true, force: true })
})

const query = async (pg: RunningPostgres, sql: string) => {
  const client = new Pg.Client({ connectionString: pg.url("postgres") })
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

describe("embedded Postgres", () => {
  it("names the first directory on the way that a user may not pass through", () => {
    const closed = mkdtempSync(join(tmpdir(), "switch-closed-"))
    cleanup.push(closed)
    const other = { uid: 54_321, gid: 54_321, groups: [] }
    const owner = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, groups: [] }
    expect(blockedFor(join(closed, "repo", ".switch", "pg"), other)).toBe(closed)
    expect(blockedFor(join(closed, "repo"), owner)).toBeNull()
    // Execute alone lets it through, as for a home directory of mode 0711.
    chmodSync(closed, 0o711)
    expect(blockedFor(join(closed, "repo", ".switch", "pg"), other)).toBeNull()
    chmodSync(closed, 0o700)
    expect(blockedFor(closed, other, { parentsOnly: true })).toBeNull()
  })

  it("a port in use is said in the error's first line, with the setting that moves it", async () => {
    const taken = createServer()
    const port = await freePort()
    await new Promise<void>((done) => taken.listen(port, "127.0.0.1", done))
    const dir = mkdtempSync(join(tmpdir(), "switch-port-"))
    chmodSync(dir, 0o755)
    cleanup.push(dir)
    try {
      const error = await startPostgres({ dir: join(dir, "pg"), port }).then(
        () => null,
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(PostgresStartError)
      expect(String((error as Error).message).split("\n")[0]).toBe(
        `Postgres could not listen on 127.0.0.1:${port}: the port is in use; stop what uses it or choose another SWITCH_PG_PORT`
      )
    } finally {
      taken.close()
    }
  }, 120_000)

  it.runIf(isRoot)(
    "as root, starts from binaries and a data directory under a 0700 directory, keeps its data across restarts, and starts afresh once the data directory is deleted",
    async () => {
      // A clone under root's home: node_modules and .switch both behind a 0700 directory.
      const home = mkdtempSync(join(tmpdir(), "switch-home-"))
      cleanup.push(home)
      const native = await packagedBinaries()
      const binaries = join(home, "repo", "node_modules", "pg-bin", "native")
      cpSync(native, binaries, { recursive: true, verbatimSymlinks: true })
      // Its package.json names the version, so the copy made for it is the one every start shares.
      cpSync(join(native, "..", "package.json"), join(home, "repo", "node_modules", "pg-bin", "package.json"))
      const dir = join(home, "repo", ".switch", "pg")

      const first = await startPostgres({ dir, binaries })
      try {
        expect(first.dir.startsWith(`${ROOT_BASE}/cluster-`)).toBe(true)
        expect(lstatSync(dir).isSymbolicLink()).toBe(true)
        // It runs a copy of the binaries that the postgres user can reach.
        const postmaster = readFileSync(join(first.dir, "postmaster.pid"), "utf8").split("\n")[0]
        expect(readlinkSync(`/proc/${postmaster}/exe`)).toMatch(
          new RegExp(`^${ROOT_BASE}/postgres-[^/]+/bin/postgres$`)
        )
        await query(first, "create table guardado (x int)")
      } finally {
        await first.stop()
      }

      const second = await startPostgres({ dir, binaries })
      try {
        expect(second.dir).toBe(first.dir)
        expect(await query(second, "select count(*)::int as n from guardado")).toEqual([{ n: 0 }])
      } finally {
        await second.stop()
      }

      rmSync(join(home, "repo", ".switch"), { recursive: true, force: true })
      const third = await startPostgres({ dir, binaries })
      try {
        expect(third.dir).toBe(first.dir)
        expect(await query(third, "select to_regclass('guardado') as t")).toEqual([{ t: null }])
      } finally {
        await third.stop()
        rmSync(third.dir, { recursive: true, force: true })
      }
      expect(existsSync(third.dir)).toBe(false)
    },
    180_000
  )
})
