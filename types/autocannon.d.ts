declare module 'autocannon' {
  interface Histogram {
    average: number
    p50: number
    p99: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
  }
  function autocannon(options: { url: string; duration: number; connections: number }): Promise<Result>
  export default autocannon
}
