export async function prepare() {}
