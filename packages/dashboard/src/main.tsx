import { render } from "preact";
import { readNetworkRules } from "./lib/network-rules.ts";
import { Root } from "./root.tsx";
import "./styles.css";

const mount = document.getElementById("app");
if (mount) render(<Root rules={readNetworkRules(document)} />, mount);
