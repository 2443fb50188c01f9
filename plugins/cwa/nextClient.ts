/** 'payload-cwa/next/client': the Next.js kit's client component (nextKit/LiveRefresh.tsx). */
export { CwaLiveRefresh, type CwaLiveRefreshProps } from './nextKit/LiveRefresh.js'
