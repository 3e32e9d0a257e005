/** Ids in paths are uuids; anything else is looked up as nothing, never sent to Postgres's uuid cast. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `id` is a uuid in its text form, any version, any case. */
export const isUuid = (id: string) => UUID.test(id)
