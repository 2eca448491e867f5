# SPDX-License-Identifier: GPL-2.0-only
# An R statistical job (Debian's r-base-core): a simulated cohort (numeric
# covariates, a factor, a count outcome) in a data frame, a linear model
# and a Poisson GLM fitted on it (QR decomposition, IRLS iterations: R's
# own model objects keep the model matrix, fits, residuals and weights),
# then bootstrap refits on resampled rows, every replicate's coefficients
# and fitted values kept, and a summary pass over them all.
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.integer(args[1]) else 200000L
reps <- if (length(args) >= 2) as.integer(args[2]) else 6L
set.seed(45)
d <- data.frame(age = round(rnorm(n, 50, 12), 1), bmi = round(rnorm(n, 27, 4), 1),
                sbp = round(rnorm(n, 130, 15)), chol = round(rnorm(n, 5.2, 1), 2),
                dose = runif(n, 0, 10),
                site = factor(sample(sprintf("site%02d", 1:12), n, replace = TRUE)))
eta <- -3 + 0.02 * d$age + 0.03 * d$bmi + 0.01 * d$sbp + 0.1 * d$chol - 0.05 * d$dose
d$events <- rpois(n, exp(eta))
d$cost <- 200 + 15 * d$age + 40 * d$events + rnorm(n, 0, 50)
fit.lm <- lm(cost ~ age + bmi + sbp + chol + dose + site, data = d)
fit.glm <- glm(events ~ age + bmi + sbp + chol + dose + site, family = poisson, data = d)
boot <- vector("list", reps)
for (b in seq_len(reps)) {
    i <- sample.int(n, n, replace = TRUE)
    g <- glm(events ~ age + bmi + sbp + chol + dose + site, family = poisson, data = d[i, ])
    boot[[b]] <- list(coef = coef(g), fitted = fitted(g), rows = i)
}
se <- apply(sapply(boot, function(x) x$coef), 1, sd)
spread <- mean(sapply(boot, function(x) sd(x$fitted)))
cat(sprintf("r-glm: %d rows, %d bootstrap fits, lm R2 %.4f, dose %.4f (boot se %.4f), spread %.4f\n",
            n, reps, summary(fit.lm)$r.squared, coef(fit.glm)[["dose"]], se[["dose"]], spread))
