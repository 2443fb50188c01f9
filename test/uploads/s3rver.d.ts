// s3rver ships no types: the part the tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: Record<string, unknown>)
    run(): Promise<{ port: number; address: string }>
    close(callback?: (error?: Error) => void): void
  }
}
