// Stand-ins for the contexts n8n hands a node (`this` in execute, loadOptions, webhook methods and
// webhook). They implement the part of n8n's interfaces the nodes use, with n8n's behaviour: a missing
// parameter without a fallback throws, static data and node context are plain mutable objects, and
// requests go through N8nHttp, which applies the credential like n8n does.
import type {
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  ILoadOptionsFunctions,
  INode,
  INodeExecutionData,
  IWebhookFunctions,
} from "n8n-workflow";
import type { Credentials, N8nHttp } from "./http.mts";

export interface LogLine {
  level: string;
  message: string;
}

interface BaseOptions {
  http: N8nHttp;
  credentials: Credentials;
  node?: Partial<INode>;
}

function baseContext(options: BaseOptions, logs: LogLine[]) {
  const node: INode = {
    id: "3f1c2b6e-0000-4000-8000-000000000001",
    name: "Social Publish",
    type: "n8n-nodes-socialpub.socialPublish",
    typeVersion: 1,
    position: [0, 0],
    parameters: {},
    ...options.node,
  };
  const log = (level: string) => (message: string) => logs.push({ level, message });
  return {
    getNode: () => node,
    getCredentials: async (type: string) => {
      if (type !== "socialPublishApi") throw new Error(`unexpected credential type ${type}`);
      return { ...options.credentials };
    },
    logger: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") },
    helpers: {
      httpRequestWithAuthentication: (type: string, request: Parameters<N8nHttp["request"]>[1]) =>
        options.http.request(type, request, options.credentials),
      returnJsonArray: (data: IDataObject | IDataObject[]) =>
        (Array.isArray(data) ? data : [data]).map((json) => ({ json })),
    },
  };
}

function parameterReader(parameters: Record<string, unknown>) {
  return (name: string, fallback?: unknown) => {
    if (name in parameters) return parameters[name];
    if (fallback !== undefined) return fallback;
    throw new Error(`Could not get parameter "${name}"`);
  };
}

export interface ExecuteOptions extends BaseOptions {
  /** Parameters of the node, the same for every item, or one object per item. */
  parameters: Record<string, unknown> | Array<Record<string, unknown>>;
  items?: INodeExecutionData[];
  continueOnFail?: boolean;
  executionId?: string;
  instanceId?: string;
  workflowId?: string;
  /** The node's execution context; pass the same object to model a retry of the same execution. */
  nodeContext?: IDataObject;
  runIndex?: number;
  timezone?: string;
  cancelSignal?: AbortSignal;
}

export interface ExecuteHarness {
  context: IExecuteFunctions;
  logs: LogLine[];
  nodeContext: IDataObject;
}

export function executeContext(options: ExecuteOptions): ExecuteHarness {
  const logs: LogLine[] = [];
  const items: INodeExecutionData[] = options.items ?? [{ json: {} }];
  const nodeContext = options.nodeContext ?? {};
  const parametersFor = (itemIndex: number) =>
    Array.isArray(options.parameters) ? (options.parameters[itemIndex] ?? {}) : options.parameters;
  const base = baseContext(options, logs);
  const binaryOf = (itemIndex: number, property: string) => {
    const binary = items[itemIndex]?.binary?.[property];
    if (!binary)
      throw new Error(`This operation expects the node's input data to contain a binary file '${property}'`);
    return binary;
  };
  const context = {
    ...base,
    getInputData: () => items,
    getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) =>
      parameterReader(parametersFor(itemIndex))(name, fallback),
    continueOnFail: () => options.continueOnFail ?? false,
    getExecutionId: () => options.executionId ?? "101",
    getInstanceId: () => options.instanceId ?? "instance-a",
    getWorkflow: () => ({ id: options.workflowId ?? "wf-1", name: "Test workflow", active: false }),
    getContext: (type: string) => {
      if (type !== "node") throw new Error(`unexpected context type ${type}`);
      return nodeContext;
    },
    getWorkflowDataProxy: () => ({ $thisRunIndex: options.runIndex ?? 0 }),
    getTimezone: () => options.timezone ?? "UTC",
    getExecutionCancelSignal: () => options.cancelSignal,
    helpers: {
      ...base.helpers,
      assertBinaryData: binaryOf,
      getBinaryDataBuffer: async (itemIndex: number, property: string) =>
        Buffer.from(binaryOf(itemIndex, property).data, "base64"),
    },
  };
  return { context: context as unknown as IExecuteFunctions, logs, nodeContext };
}

export function loadOptionsContext(options: BaseOptions): ILoadOptionsFunctions {
  return baseContext(options, []) as unknown as ILoadOptionsFunctions;
}

export interface HookOptions extends BaseOptions {
  webhookUrl: string;
  events: string[];
  staticData?: IDataObject;
}

export function hookContext(options: HookOptions): {
  context: IHookFunctions;
  staticData: IDataObject;
  logs: LogLine[];
} {
  const staticData = options.staticData ?? {};
  const logs: LogLine[] = [];
  const context = {
    ...baseContext(
      {
        ...options,
        node: { name: "Social Publish Trigger", type: "n8n-nodes-socialpub.socialPublishTrigger" },
      },
      logs,
    ),
    getNodeWebhookUrl: (name: string) => (name === "default" ? options.webhookUrl : undefined),
    getNodeParameter: (name: string, fallback?: unknown) =>
      parameterReader({ events: options.events })(name, fallback),
    getWorkflowStaticData: (type: string) => {
      if (type !== "node") throw new Error(`unexpected static data type ${type}`);
      return staticData;
    },
  };
  return { context: context as unknown as IHookFunctions, staticData, logs };
}

export interface WebhookOptions extends BaseOptions {
  events: string[];
  staticData: IDataObject;
  rawBody?: Buffer;
  headers: Record<string, string | string[]>;
}

export interface FakeResponse {
  statusCode?: number;
  body?: unknown;
}

export function webhookContext(options: WebhookOptions): {
  context: IWebhookFunctions;
  response: FakeResponse;
  logs: LogLine[];
} {
  const logs: LogLine[] = [];
  const response: FakeResponse = {};
  const res = {
    status(code: number) {
      response.statusCode = code;
      return res;
    },
    json(body: unknown) {
      response.body = body;
      return res;
    },
  };
  const context = {
    ...baseContext(options, logs),
    getRequestObject: () => ({ rawBody: options.rawBody, headers: options.headers }),
    getHeaderData: () => options.headers,
    getResponseObject: () => res,
    getWorkflowStaticData: () => options.staticData,
    getNodeParameter: (name: string, fallback?: unknown) =>
      parameterReader({ events: options.events })(name, fallback),
  };
  return { context: context as unknown as IWebhookFunctions, response, logs };
}
