// Philox4x32-10 (Salmon, Moraes, Dror & Shaw, SC 2011), the counter-based generator of the SVC kernels:
// the value for a counter does not depend on what any other work-item drew. Device twin of
// nnls/philox.hpp; the two must stay bit for bit the same.
uint4 philox4x32_10(uint4 x, uint2 key) {
  const uint m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
  const uint w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {  // the key schedule: a Weyl sequence, bumped before rounds 2..10
      key.x += w0;
      key.y += w1;
    }
    const uint hi0 = mul_hi(m0, x.x), lo0 = m0 * x.x;
    const uint hi1 = mul_hi(m1, x.z), lo1 = m1 * x.z;
    x = (uint4)(hi1 ^ x.y ^ key.x, lo1, hi0 ^ x.w ^ key.y, lo0);
  }
  return x;
}
