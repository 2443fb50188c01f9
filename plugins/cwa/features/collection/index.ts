/** The Collection component: a read-only view of another resource's collection. */
export { collectionComponent } from './component'
