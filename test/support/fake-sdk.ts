// An AWS SDK as the generic runtime (src/services/declared-kind/) uses it, in-process, for its
// pure-logic tests: every `<Operation>Command` of the package records its input, and `send`
// answers what the test says for that operation (or throws an error named as AWS names it).
// What the runtime sends against the real SDK and the emulator is tested in test/integration.

export type Fields = Record<string, unknown>;

export interface SentCall {
  readonly operation: string;
  readonly input: Fields;
}

/** An error as the SDK throws AWS's: its name is the code. */
export function awsError(name: string, message = name): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 } });
}

export interface FakeSdk {
  /** The SDK package: `sdk.<Operation>Command`. */
  readonly sdk: Readonly<Record<string, unknown>>;
  /** A client the runtime's calls take (`{ sdk, region, account }`). */
  readonly client: never;
  /** Every call sent, in order. */
  readonly sent: SentCall[];
}

export function fakeSdk(answer: (call: SentCall) => Fields | Promise<Fields>): FakeSdk {
  const sent: SentCall[] = [];
  const commandOf = (operation: string) =>
    class {
      readonly operation = operation;
      readonly input: Fields;
      constructor(input: Fields) {
        this.input = input;
      }
    };
  const sdk = new Proxy(
    {},
    {
      get: (_target, prop) =>
        typeof prop === "string" && prop.endsWith("Command")
          ? commandOf(prop.slice(0, -"Command".length))
          : undefined,
    },
  );
  const client = {
    region: "us-east-1",
    account: "111111111111",
    sdk: {
      config: { region: async () => "us-east-1" },
      destroy: () => undefined,
      async send(command: SentCall): Promise<Fields> {
        const call = { operation: command.operation, input: command.input };
        sent.push(call);
        return answer(call);
      },
    },
  };
  return { sdk, client: client as never, sent };
}
