// 10n ** 100000000n (minutes inside one BigInt operation).
(10n ** 100000000n).toString().length
