/** Creating databases outside a server (start-up and tests); `Prepare.ts` then migrates them. */
import Pg from "pg"

/** Creates `name` on the server of `adminUrl` (a url to any existing database) unless it exists. */
export const ensureDatabase = async (adminUrl: string, name: string, template?: string): Promise<void> => {
  const client = new Pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name])
    if (found.rowCount === 0) {
      const quoted = `"${name.replaceAll('"', '""')}"`
      await client.query(
        `create database ${quoted}${template === undefined ? "" : ` template "${template}"`}`
      )
    }
  } finally {
    await client.end()
  }
}
