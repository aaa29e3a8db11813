// Prints docs/networks.md's "What each network carries" table from the networks' rules.
import { carriesTable } from "../src/contract/carries-table.ts";

console.log(carriesTable());
