"""Data pipelines are NumPy: in-place updates and boolean masks on NumPy arrays are fine.
"""
import numpy as np


def standardize_inplace(features):
    mean = features.mean(axis=0)
    std = features.std(axis=0)
    std[std == 0] = 1.0
    features -= mean
    features /= std
    return features


def one_hot(labels, num_classes):
    out = np.zeros((labels.shape[0], num_classes), dtype=np.float32)
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def clip_outliers(x, k=3.0):
    x[np.abs(x) > k] = 0.0
    x[0] += 1
    return x


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    feats = rng.normal(size=(16, 4)).astype(np.float32)
    print(standardize_inplace(feats).mean(axis=0))
    print(one_hot(np.array([0, 2, 1]), 3))
    print(clip_outliers(rng.normal(size=8) * 4))
