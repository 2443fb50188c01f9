// The publish transitions are events of the write-event bus (core/events): the recorder lives with its tests.
export { recordWriteEvents as recordPublishEvents, summary } from '../events/record'
