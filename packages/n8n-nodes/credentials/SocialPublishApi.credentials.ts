import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  Icon,
  INodeProperties,
} from "n8n-workflow";

export class SocialPublishApi implements ICredentialType {
  name = "socialPublishApi";

  displayName = "Social Publish API";

  icon: Icon = { light: "file:../icons/socialpub.svg", dark: "file:../icons/socialpub.dark.svg" };

  documentationUrl = "https://github.com/socialpub/socialpub/tree/main/packages/n8n-nodes#credentials";

  properties: INodeProperties[] = [
    {
      displayName: "API Key",
      name: "apiKey",
      type: "string",
      typeOptions: { password: true },
      default: "",
      required: true,
      placeholder: "sp_test_…",
      description:
        "A key from the dashboard's Settings → API keys (or the server's keys create). Test keys (sp_test_) publish to sandbox networks, live keys (sp_live_) for real.",
    },
    {
      displayName: "Base URL",
      name: "baseUrl",
      type: "string",
      default: "http://127.0.0.1:8787/api/v1",
      required: true,
      description:
        "Address of the service including the version segment, e.g. https://api.example.com/api/v1",
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: "generic",
    properties: {
      headers: {
        Authorization: "=Bearer {{$credentials.apiKey}}",
      },
    },
  };

  // GET /me is the cheapest call that proves both the address and the key. n8n shows only the HTTP
  // status text of a failed test ("Unauthorized"), never the service's body, so the two answers a
  // user can fix get their own message: a wrong key, and a Base URL without /api/v1.
  test: ICredentialTestRequest = {
    request: {
      // The trailing slashes go; "(?<!\/)" starts a match only where a run of slashes begins, so a long
      // run is scanned once rather than from each of its slashes (which is quadratic).
      baseURL: '={{$credentials.baseUrl.replace(/(?<!\\/)\\/+$/, "")}}',
      url: "/me",
      method: "GET",
    },
    rules: [
      {
        type: "responseCode",
        properties: { value: 401, message: "Invalid or revoked API key." },
      },
      {
        type: "responseCode",
        properties: {
          value: 404,
          message:
            "No Social Publish API at this Base URL. It must include the version segment, e.g. http://127.0.0.1:8787/api/v1.",
        },
      },
    ],
  };
}
