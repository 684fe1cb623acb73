// The pages of an EC2 Describe call (`NextToken` in and out), one by one, through the runtime's
// calls (a hook's Ask): the tag filter's search, a subnet's route tables, a group's rules.
import type { Ask, Fields } from "../declared-kind/source.ts";

export async function* pages(ask: Ask, call: string, input: Fields): AsyncGenerator<Fields> {
  let token: unknown;
  do {
    const page = await ask(call, token === undefined ? input : { ...input, NextToken: token });
    if (page !== undefined) yield page;
    token = page?.["NextToken"];
  } while (typeof token === "string" && token !== "");
}
