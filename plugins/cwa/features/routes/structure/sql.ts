/** The raw SQL helpers the route structure code uses (shared with the rest of the project). */
export { inTransaction, runBuiltSql, runSql, sql, type Sql, type SqlChunk } from '../../../core/utils/sql.js'
