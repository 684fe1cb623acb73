// How EC2's kinds carry tags, one part of their declarations (loaded with them, at start): the
// create takes them in a tag specification of the object's resource type, CreateTags and
// DeleteTags name the object by its ID in `Resources` (a list: the model says so), DeleteTags
// takes the keys as tags, and the object's read answer holds them: no call of their own reads them.
export const ec2Tags = (resourceType: string) =>
  ({
    resource: "Resources",
    by: "identifier",
    keys: "Tags",
    list: "Tags",
    inAnswer: "Tags",
    specification: resourceType,
  }) as const;
