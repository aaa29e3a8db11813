// The suite-wide bound on child processes lives in test-support/ (every package's tests share it).
export {
  mostProcessesAtOnce,
  PROCESS_SLOTS,
  slotsHeld,
  withProcessSlot,
} from "../../../../test-support/process-slots.ts";
